"""``intent list`` and ``user list``: a table on a terminal, one tab-separated line per row in a pipe
(as ``gh`` prints), and text that looks like rich markup shown as typed in both."""

from __future__ import annotations

LONG = "Remind me to rotate the staging keys and tell [bold]Alice[/bold] in [red]#ops[/] before the deploy"


def _intent(clawmem, text=LONG):
    result = clawmem("intent", "add", text, "--when", "deploy", "--origin", "owner")
    assert result.returncode == 0, result.stderr


def test_intent_list_in_a_pipe_is_one_greppable_line_per_intent(ws, clawmem):
    _intent(clawmem)
    _intent(clawmem, "Check the invoice job after the release")
    result = clawmem("intent", "list")
    assert result.returncode == 0, result.stderr
    rows = [line.split("\t") for line in result.stdout.splitlines()]
    assert [len(r) for r in rows] == [7, 7]  # id, state, trigger, scope, fires, expires, text; no header, no box
    assert rows[0][0] == "1" and rows[0][2] == "deploy" and rows[0][6] == LONG
    assert "│" not in result.stdout and "─" not in result.stdout


def test_user_list_in_a_pipe_is_one_line_per_directive(ws, clawmem):
    directive = "Always answer in English, even when asked in German, and cite [1] sources"
    assert clawmem("user", "set", directive, "--key", "lang", "--origin", "owner").returncode == 0
    result = clawmem("user", "list")
    assert result.returncode == 0, result.stderr
    (row,) = [line.split("\t") for line in result.stdout.splitlines()]
    assert row[0] == "lang" and row[1] == directive and row[3] == "active"


def test_on_a_terminal_a_table_shows_markup_looking_text_as_typed(clawmem, on_terminal, ws):
    _intent(clawmem)
    code, shown = on_terminal("intent", "list", "-w", str(ws.root), columns=400)
    assert code == 0, shown
    assert "ID" in shown and "Text" in shown  # a table with its header
    assert LONG in shown
