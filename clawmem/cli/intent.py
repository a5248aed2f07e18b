"""``clawmem intent add|list|cancel|due|cron``: standing intents (prospective memory)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from clawmem.cli.options import JsonOpt, OriginOpt, SessionOpt, WorkspaceOpt, resolve_origin
from clawmem.foundation.vocabulary import IntentStateFilter as StateFilter
from clawmem.rules.output import say
from clawmem.storage.anchors import cite

app = typer.Typer(
    help="Standing intents: 'when X comes up, do Y', reminders at a time, and aspirations with a review date.",
    no_args_is_help=True,
)


def _duration(seconds: int) -> str:
    if seconds == 0:
        return "none"
    for unit, size in (("w", 604800), ("d", 86400), ("h", 3600), ("m", 60)):
        if seconds % size == 0 and (unit != "d" or seconds > 86400):
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def _zone_name(ws) -> str:
    return ws.config.intents.timezone or "system time zone"


@app.command("add")
def add(
    text: Annotated[str, typer.Argument(help="What to do or say, or - to read it from standard input.")],
    when: Annotated[
        Optional[list[str]], typer.Option("--when", help="Trigger phrase: fires when a message contains all its words (repeatable; ',' separates phrases).")
    ] = None,
    at: Annotated[Optional[str], typer.Option("--at", help="A time: 'friday 9am', 'in 2 hours', 2026-11-27T09:00. Alone: a reminder; with --when: when it arms.")] = None,
    review: Annotated[Optional[str], typer.Option("--review", help="An aspiration (no trigger): written to today's note with this review date.")] = None,
    channel: Annotated[Optional[str], typer.Option("--channel", help="Only for messages on this channel (reminders: where to deliver).")] = None,
    sender: Annotated[Optional[str], typer.Option("--sender", help="Only for messages from this sender (reminders: whom to remind).")] = None,
    expires: Annotated[Optional[str], typer.Option("--expires", help="Expiry: a duration (30d, 2w) or a time [default: intents.expiry_days after it arms].")] = None,
    budget: Annotated[Optional[int], typer.Option("--budget", min=1, help="Most times it may fire [default: intents.budget, 3].")] = None,
    cooldown: Annotated[Optional[str], typer.Option("--cooldown", help="Least time between fires: 30m, 24h, 2d [default: intents.cooldown_hours, 24h].")] = None,
    origin: OriginOpt = None,
    session: SessionOpt = None,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Create a standing intent: an event trigger (--when), a reminder (--at) or an aspiration (--review).

    Only owner or agent origin may create one; untrusted or system origin is refused whatever
    the text says. Defaults: cooldown 24h, budget 3 fires, expiry 90 days, from clawmem.toml.

    Examples:

    \b
        clawmem intent add "Mention the changelog" --when release --origin agent
        clawmem intent add "Send the weekly report" --at "friday 9am" --origin owner
        clawmem intent add "Ask how the launch went" --when "launch" --channel telegram --sender alice --budget 1
        clawmem intent add "Read the codebase before refactoring" --review "in 2 weeks" --origin owner
    """
    from clawmem.intents import schedule, store
    from clawmem.rules.output import emit_json
    from clawmem.storage.workspace import Workspace
    from clawmem.trust import authority

    ws = Workspace.open(workspace)
    from clawmem.rules.inputs import text_or_stdin

    text = text_or_stdin(text, limit=ws.config.limits.max_note_bytes, what="intent")
    who = resolve_origin(origin)
    authority.check_creator(who, "create an intent")
    now = store.current_time()
    if review is not None:
        from clawmem.intents.aspirations import add_for_review

        result = add_for_review(
            ws, text, review, origin=who, session=session, now=now,
            with_trigger=bool(when or at), with_intent_options=any(v is not None for v in (channel, sender, expires, budget, cooldown)),
        )
        if json_output:
            emit_json(result)
        else:
            say(f"Aspiration noted in {result.path}:{result.line}, review on {result.review.isoformat()}")
        return
    from clawmem.index.db import Index
    from clawmem.intents.store import add_intent

    at_time = schedule.resolve_time(ws, at, now=now) if at is not None else None
    expiry = schedule.resolve_expiry(ws, expires, now=now) if expires is not None else None
    cooldown_s = schedule.parse_duration(cooldown) if cooldown is not None else None
    with Index.open(ws) as index:
        intent = add_intent(
            ws, index, text, origin=who, keywords=when or [], at=at_time, channel=channel, sender=sender,
            expires=expiry, budget=budget, cooldown_s=cooldown_s, session=session, now=now,
        )
    if json_output:
        emit_json(intent)
        return
    show = lambda stamp: schedule.display(stamp, ws)  # noqa: E731
    if intent.kind == "time":
        say(f"Reminder #{intent.id} due {show(intent.due_at)} ({_zone_name(ws)}): {intent.text}")
        say(f"  fires once through `clawmem intent due` (install it with `clawmem intent cron`); expires {show(intent.expires_at)}")
        return
    phrases = " | ".join(f"'{p}'" for p in intent.keywords)
    arm = f"pending until {show(intent.due_at)}" if intent.state == "pending" else "armed"
    say(f"Intent #{intent.id} {arm}: when a message mentions {phrases} -> {intent.text}")
    scope = "".join(f", {name} {value}" for name, value in (("channel", intent.channel), ("sender", intent.sender)) if value)
    say(f"  budget {intent.budget}, cooldown {_duration(intent.cooldown_s)}, expires {show(intent.expires_at)}{scope}")



@app.command("list")
def list_(
    state: Annotated[
        Optional[list[StateFilter]], typer.Option("--state", help="Show intents in this state (repeatable): active (pending, armed, fired), all, or one state.")
    ] = None,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """List standing intents (by default the active ones: pending, armed, fired).

    Examples:

    \b
        clawmem intent list
        clawmem intent list --state all --json
        clawmem intent list --state done --state expired
    """
    from clawmem.foundation.vocabulary import states_for
    from clawmem.index.db import Index
    from clawmem.intents import schedule
    from clawmem.intents.store import list_intents
    from clawmem.rules.output import emit_json
    from clawmem.storage.workspace import Workspace

    ws = Workspace.open(workspace)
    chosen = [s.value for s in (state or [StateFilter.active])]
    with Index.open(ws) as index:
        intents = list_intents(ws, index, states=states_for(chosen))
    if json_output:
        emit_json(intents)
        return
    if not intents:
        say(f"No intents ({', '.join(chosen)}). Add one with `clawmem intent add TEXT --when PHRASE` or `--at TIME`.")
        return
    from clawmem.rules.output import print_table

    rows = []
    for i in intents:
        trigger = f"at {schedule.display(i.due_at, ws)}" if i.kind == "time" else " | ".join(i.keywords)
        if i.kind == "event" and i.due_at:
            trigger += f" (from {schedule.display(i.due_at, ws)})"
        scope = ", ".join(f"{k}={v}" for k, v in (("channel", i.channel), ("sender", i.sender)) if v) or "-"
        rows.append((str(i.id), i.state, trigger, scope, f"{i.fires}/{i.budget}", schedule.display(i.expires_at, ws), i.text))
    print_table(("ID", "State", "Trigger", "Scope", "Fires", "Expires", "Text"), rows)


@app.command("cancel")
def cancel(
    intent_id: Annotated[int, typer.Argument(metavar="ID", help="The intent's id (see `clawmem intent list`).")],
    origin: OriginOpt = None,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Cancel an intent explicitly (cancellation is never inferred from conversation).

    Examples:

    \b
        clawmem intent cancel 3 --origin owner
    """
    from clawmem.index.db import Index
    from clawmem.intents.store import cancel_intent
    from clawmem.rules.output import emit_json
    from clawmem.storage.workspace import Workspace

    ws = Workspace.open(workspace)
    with Index.open(ws) as index:
        intent = cancel_intent(ws, index, intent_id, origin=resolve_origin(origin))
    if json_output:
        emit_json(intent)
    else:
        say(f"Cancelled intent #{intent.id}: {intent.text}")


@app.command("match")
def match(
    message: Annotated[str, typer.Argument(help="The inbound message, or - to read it from standard input.")],
    channel: Annotated[Optional[str], typer.Option("--channel", help="Channel the message arrived on.")] = None,
    sender: Annotated[Optional[str], typer.Option("--sender", help="Who sent it.")] = None,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Fire the event intents a message triggers: the intents part of `clawmem recall`, alone.

    Deterministic (every word of one trigger phrase must appear), no model call; scope,
    expiry, cooldown and budget are checked and each fire is counted. At most
    intents.max_per_turn (3) fire per message.

    Examples:

    \b
        clawmem intent match "is the release out yet?"
        echo "$MESSAGE" | clawmem intent match - --channel telegram --sender alice --json
    """
    from clawmem.index.db import Index
    from clawmem.intents.matching import match_for_recall
    from clawmem.rules.output import emit_json
    from clawmem.storage.workspace import Workspace

    ws = Workspace.open(workspace)
    from clawmem.rules.inputs import text_or_stdin

    message = text_or_stdin(message, limit=ws.config.limits.max_ingest_bytes, what="message", named="message")
    with Index.open(ws) as index:
        hits = match_for_recall(ws, index, message, channel=channel, sender=sender)
    if json_output:
        emit_json(hits)
        return
    for hit in hits:
        say(f"Intent #{hit.id} (matched '{hit.matched}', fire {hit.fires}/{hit.budget}): {hit.text}")


@app.command("due")
def due(workspace: WorkspaceOpt = None, json_output: JsonOpt = False) -> None:
    """Fire every reminder that is due, exactly once, and print it for the caller to deliver.

    Run it from cron every minute (`clawmem intent cron` prints the line). Overlapping runs
    never fire one reminder twice. Aspirations past their review date are listed too, each
    at most once per intents.cooldown_hours. Prints nothing when nothing is due (so cron
    mails nothing); --json always prints an array (aspirations have "kind": "aspiration").

    Examples:

    \b
        clawmem intent due
        clawmem intent due --json | my-agent deliver
    """
    from clawmem.foundation.timeparse import local_now
    from clawmem.index.db import Index
    from clawmem.intents import schedule
    from clawmem.intents.aspirations import surface
    from clawmem.intents.schedule import fire_due
    from clawmem.rules.output import emit_json
    from clawmem.storage.workspace import Workspace

    ws = Workspace.open(workspace)
    with Index.open(ws) as index:
        fired = fire_due(ws, index)
        moment = local_now()
        due_aspirations = surface(ws, index, moment.date(), channel="due", now=moment, limit=100)
    if json_output:
        emit_json([*fired, *due_aspirations])
        return
    for item in fired:
        to = "".join(f" [{name}: {value}]" for name, value in (("channel", item.channel), ("sender", item.sender)) if value)
        say(f"Reminder #{item.id} (due {schedule.display(item.due_at, ws)}){to}: {item.text}")
    for a in due_aspirations:
        say(f"Aspiration due for review (review was {a.review.isoformat()}, {cite(a.path, a.line)}, {a.state}): {a.text}")


@app.command("cron")
def cron(workspace: WorkspaceOpt = None) -> None:
    """Print the crontab line that runs `clawmem intent due` every minute for this workspace.

    Examples:

    \b
        clawmem intent cron
        (crontab -l 2>/dev/null; clawmem intent cron) | crontab -
    """
    import sys

    from clawmem.intents.schedule import cron_line
    from clawmem.storage.workspace import Workspace

    ws = Workspace.open(workspace)
    print(cron_line(ws))
    if sys.stdout.isatty():
        sys.stderr.write("install it with: (crontab -l 2>/dev/null; clawmem intent cron) | crontab -\n")
