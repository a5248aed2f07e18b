"""Standing directives said other than as "always/never <verb> …" (``clawmem.dream.directive_grammar``).

A passive habit with a marker, a decision for a value of a known kind, "no X" with a marker or a
topic, "we don't do X, we do Y", a trailing "please", the verb a habit word leaves out ("never
`git push -f`", "always UTC") and "I'd rather you <verb> …": each is read as the imperative
USER.md holds, keyed so that a later choice of the same kind replaces it. What it must not
catch (a task about a particular thing, a choice of the moment, a question, someone else's
words, a line that points into the conversation) is listed beside it. Through the CLI these
forms are exercised in ``test_dream_directives.py`` (``test_a_changed_convention_supersedes_in_place``).
"""

from __future__ import annotations

import pytest

from clawmem.dream.directive_grammar import derive_key, directive_in, directives_in

FORMS = [
    # a passive habit, with a habit marker, "as a rule" or a rule label: the participle is the verb
    ("New Python code gets written in polars from now on.", "Write new Python code in polars.", "dataframe.python"),
    ("Tests are written with Vitest going forward.", "Write tests with Vitest.", "test-runner.js"),
    ("From now on, packages get installed with pnpm.", "Always install packages with pnpm.", "package-manager.node"),
    ("As a rule, new code is formatted with ruff.", "Format new code with ruff.", "format-code"),
    ("Dependencies get managed with uv from here on.", "Always manage dependencies with uv.", "package-manager.python"),
    ("In future, commit messages get written in English.", "Write commit messages in English.", "language"),
    ("Scripts should be written in bash from now on.", "Write scripts in bash.", "shell"),
    ("House rule: new code gets written in TypeScript", "Write new code in TypeScript.", "write-code"),
    # the owner announcing their own ways of working: the label is a marker, what follows the rule
    ("Two things about how I like to work: answer in British English.", "Answer in British English.", "language"),
    ("How I like to work: keep answers short, no preamble.", "Keep answers short, no preamble.", "keep-answers"),
    ("My preferences: always run the linters before committing.", "Always run the linters before committing.", "run-linters"),
    ("Some things about how I want things done: never push to main.", "Never push to main.", "push-to-main"),
    ("One thing before anything else: always answer in British English.", "Always answer in British English.", "language"),
    # a decision for a value of a known kind (a plan, "we'll use …", only with a marker)
    ("we're going with polars after all", "Use polars.", "dataframe.python"),
    ("we've settled on Vitest", "Use Vitest.", "test-runner.js"),
    ("we'll use pnpm from here on", "Use pnpm.", "package-manager.node"),
    ("I'm switching to zsh in the end", "Use zsh.", "shell"),
    ("We have decided on pnpm for everything.", "Use pnpm for everything.", "package-manager.node"),
    ("ok, we're going with tabs, not spaces, after all", "Use tabs, not spaces.", "indentation"),
    ("let's go with British English from now on", "Use British English.", "language"),
    ("From now on we use uv.", "Use uv.", "package-manager.python"),
    # "no X" with a habit marker (", ever" is one) or in a topic with a house style
    ("No gitmoji in commit messages from now on.", "Don't use gitmoji in commit messages.", "use-gitmoji"),
    ("No emoji in commit messages, ever.", "Don't use emoji in commit messages.", "use-emoji"),
    ("No emojis, ever.", "Don't use emojis.", "use-emoji"),
    ("From now on, no tables in answers.", "Don't use tables in answers.", "use-tables"),
    ("No abbreviations in variable names going forward", "Don't use abbreviations in variable names.", "use-abbreviations"),
    ("No gitmoji in PR titles.", "Don't use gitmoji in PR titles.", "use-gitmoji"),
    # "we don't do X, we do Y": the mirror of "we do Y, not X", the same verb twice
    ("we don't do nested subqueries, we do CTEs", "Do CTEs, not nested subqueries.", "do-ctes"),
    ("we don't do subqueries, we do CTEs instead", "Do CTEs, not subqueries.", "do-ctes"),
    ("we don't use Jest, we use Vitest", "Use Vitest, not Jest.", "test-runner.js"),
    ("We don't use npm any more; we use pnpm.", "Use pnpm, not npm.", "package-manager.node"),
    ("we don't write them with Jest — we write them with Vitest", "Write tests with Vitest, not Jest.", "test-runner.js"),
    # a trailing "please" counts like a leading one
    ("Keep commit messages short please", "Keep commit messages short.", "keep-commit"),
    ("Keep PR descriptions brief, please.", "Keep PR descriptions brief.", "keep-pr"),
    ("Use tabs, please.", "Use tabs.", "indentation"),
    ("Call me Sam please", "Call me Sam.", "call-me"),
    # the verb a habit word leaves out: a backticked command is run, a one-word code span, a kind's value or a named style used
    ("Don't ever `terraform apply` without a plan file.", "Never run `terraform apply` without a plan file.", "run-terraform"),
    ("never `git push --force` to main", "Never run `git push --force` to main.", "run-git"),
    ("always `make lint` before committing", "Always run `make lint` before committing.", "run-make"),
    ("Never `eval` in library code.", "Never use `eval` in library code.", "use-eval"),
    ("Don't ever run `git log --since=yesterday` in scripts", "Never run `git log --since=yesterday` in scripts.", "run-git"),
    ("Dates: always UTC", "Always use UTC (dates).", "use-utc"),
    ("Variable names: always snake_case", "Always use snake_case (variable names).", "use-snake"),
    ("always tabs", "Always use tabs.", "indentation"),
    # "I'd rather you <verb> …" with a known verb, in its base form or a regular past
    ("I'd rather you run mix precommit before every commit", "Always run mix precommit before every commit.", "run-mix"),
    ("I'd rather you used pnpm", "Use pnpm.", "package-manager.node"),
    ("I'd rather you replied in French", "Reply in French.", "language"),
    ("I'd rather you stopped adding emoji to commit messages", "Stop adding emoji to commit messages.", "add-emoji"),
    ("I'd rather you always run the linter before pushing", "Always run the linter before pushing.", "run-linter"),
    # where a kind of thing goes, said as a habit
    ("From now on all user-facing text goes in the ARB files.", "Put all user-facing text in the ARB files.", "put-user-facing"),
    ("New migrations go in db/migrate from now on.", "Put new migrations in db/migrate.", "put-migrations"),
    # the reason after a dash is a sentence of its own
    ("Run tests with `cargo nextest run`, not `cargo test` — it's faster.", "Always run tests with `cargo nextest run`, not `cargo test`.", "test-runner.rust"),
    # a yes or a "but" before the rule, set off by a dash
    ("But yes — I'd rather you run mix precommit before every commit", "Always run mix precommit before every commit.", "run-mix"),
    ("Yes – always run the linter before pushing.", "Always run the linter before pushing.", "run-linter"),
    # emphasis before the rule comes off
    ("And let me be very clear about prod: never kubectl apply anything in quayside-prod.", "Never kubectl apply anything in quayside-prod.", "kubectl-apply"),
    ("Just to be clear, never push to main.", "Never push to main.", "push-to-main"),
    ("I want to be clear: always run the migrations in a transaction.", "Always run the migrations in a transaction.", "run-migrations"),
    # a rule for one part of the project, said before or after it, keyed by that part
    ("For the legacy app, always use npm for installs.", "Always use npm for installs for the legacy app.", "package-manager.node.legacy-app"),
    ("Always use npm for installs in the legacy app.", "Always use npm for installs in the legacy app.", "package-manager.node.legacy-app"),
    ("In the mobile app, always use the design tokens.", "Always use the design tokens in the mobile app.", "use-design.mobile-app"),
    ("In the billing service we never use floats for money.", "Never use floats for money in the billing service.", "use-floats.billing-service"),
    # a habit marker before any imperative, the verb one USER.md does not open with given "Always"
    ("From now on, deploy with Render.", "Always deploy with Render.", "deploy-with-render"),
    ("Going forward, run tests with pytest.", "Always run tests with pytest.", "test-runner.python"),
    ("Commit with a signed-off-by line from now on.", "Always commit with a signed-off-by line.", "commit-with-signed-off-by"),
    # "in general" and "as a rule" are habit markers too, also after a remark and a dash
    ("In general, ask me before you add a hex dependency.", "Ask me before you add a hex dependency.", "ask-me-before"),
    ("Tz is fine — but as a rule, ask me before you add a dependency.", "Ask me before you add a dependency.", "ask-me-before"),
    # the habit in the active voice, the thing first
    ("New code uses Req from now on.", "Use Req for new code.", "use-req"),
    ("Tests use pytest from now on.", "Use pytest for tests.", "test-runner.python"),
    ("Going forward the frontend uses Vite.", "Use Vite for the frontend.", "use-vite.frontend"),
    # what to do towards the owner under a condition: keyed by what is asked and when
    (
        "If a query would scan more than about 10 GB, stop and ask me.",
        "Stop and ask me if a query would scan more than about 10 GB.", "ask-me.query-scan",
    ),
    ("When CI is red, ping me instead of retrying.", "Always ping me instead of retrying when CI is red.", "ping-me.ci-red"),
    ("Whenever a migration touches bookings, check with me first.", "Check with me first whenever a migration touches bookings.", "check-with-me.migration-touches"),
    ("Every time you add a dependency, tell me why.", "Tell me why every time you add a dependency.", "tell-me.add-dependency"),
    # an order of parts after a topic label is a style spec; its "the" names a part of the pattern
    (
        "Commit messages: the ticket id first, then a short imperative summary — like `DATA-212 Add station dimension` — please.",
        "Format commit messages: the ticket id first, then a short imperative summary.", "format-commit",
    ),
    ("Branch names: the ticket id first, followed by a short slug.", "Format branch names: the ticket id first, followed by a short slug.", "format-branch"),
    ("PR titles: the component first, then what changed.", "Format PR titles: the component first, then what changed.", "format-pr"),
]


@pytest.mark.parametrize(("said", "directive", "key"), FORMS)
def test_each_form_is_read_as_an_imperative_with_its_key(said, directive, key):
    assert directive_in(said) == directive and derive_key(directive) == key


KEPT = [  # what already counted reads as before: a verb after "don't ever", a verb with its object after "always"
    ("Don't ever run `terraform apply` without a plan file.", "Never run `terraform apply` without a plan file."),
    ("I'd rather you didn't push to main", "Don't push to main."),
    ("always lowercase the tags", "Always lowercase the tags."),
    ("Reply in French please", "Reply in French."),
    # a habit marker ("ever", "from now on") beside a topic label: the label still reads as one
    ("Oh, and while we're on tests: I'd rather you didn't mock the database, ever.", "Don't mock the database (tests)."),
    ("While we're on tests: don't hit the network, ever.", "Don't hit the network (tests)."),
    ("Commit messages: imperative mood, from now on.", "Format commit messages: imperative mood."),
]


@pytest.mark.parametrize(("said", "directive"), KEPT)
def test_what_already_counted_reads_as_before(said, directive):
    assert directive_in(said) == directive


NOT_FORMS = [
    # an announced way of working whose words are no rule: a report
    "How I like to work: I drink a lot of coffee.", "My preferences: the dark theme is nicer.",
    # one-off tasks about a particular thing
    "Bump the build number to 1.6.0+58 for me", "drop the users table on staging", "Put it in the Makefile", "Put it in the Makefile please",
    "Fix the login bug please", "Keep it short please", "No changes in this PR from now on",
    # a choice of the moment, a plan without a marker, a fact without a marker, a report
    "we're going with the blue one", "we're going with the blue one after all", "we're going with polars for this script",
    "we're going with pnpm this time", "we're going with polars for now", "we went with polars", "we'll use pnpm", "we're using pnpm",
    "let's go with polars", "the build gets done in CI", "Tests get written with pytest", "New code gets written today",
    "New code gets written in polars today", "we didn't use Jest, we used Vitest",
    # no contrast to say
    "we don't mock the database, we use fixtures", "we don't do both, we do one",
    # pointing into the conversation
    "please don't ever print those values", "it gets written in polars from now on", "those get built with Vite from now on",
    "No more emojis today",
    # questions
    "are we going with polars?", "New code gets written in polars from now on?", "Should tests be written with Vitest going forward?",
    "we don't use Jest, we use Vitest, right?", "No gitmoji in commit messages from now on?",
    # someone else's words, a hedge
    "He said new code gets written in polars from now on", "Sam says new code gets written in polars from now on",
    "Sam doesn't use Jest, he uses Vitest", "I think new code gets written in polars from now on",
    # emphasis or a part of the project before a fact or a task
    "Let me be clear about the deadline: it is Friday.", "In the app, the login button is broken.", "For the login page, use the new layout.",
    # a habit marker before a statement or a plan, not an imperative
    "From now on, I will be out on Fridays.", "Going forward, the tests run in CI.", "From now on, we deploy on Tuesdays?",
    # a person's habit, or no marker
    "Sam uses Vim from now on.", "It uses Req from now on.", "New code uses Req.", "Sam goes in the office from now on.",
    "The report goes in the shared drive.", "It goes in the drawer from now on.",
    "In general the build is slow.", "The old endpoint still works — but never call it from new code.",
    # its reason is in the conversation
    "Don't go rewriting the GripDesk client just for that.", "Never push to main because of it.",
    # a condition or a request about the work at hand; a procedure is a fact of the project
    "If it works, tell me.", "If the tests pass, tell me the numbers.", "If you have time today, ask me about the schema.",
    "If you find the bug, ping me.", "If the build fails, run make clean first.",
    # "the" after a topic label without a style spec is one thing: a report
    "Commit messages: the last one was wrong.", "Tests: the flaky one first, then the rest.", "Commit messages: the ones from today are imperative.",
]


@pytest.mark.parametrize("said", NOT_FORMS)
def test_what_stays_out(said):
    assert directive_in(said) is None


def test_a_habit_marker_ends_the_rule_before_an_and():
    turn = "user: And a heads-up first: we're moving off HTTPoison. New code uses Req from now on, and HTTPoison goes away bit by bit as we touch things."
    assert directives_in(turn, transcript=True) == ["Use Req for new code."]


def test_in_a_turn_the_rule_is_taken_and_the_rest_left():
    turn = "user: New Python code gets written in polars from now on; leave the old pandas code alone unless you're changing it anyway."
    assert directives_in(turn, transcript=True) == ["Write new Python code in polars."]
    turn = "user: Looks good. We don't use npm any more; we use pnpm. Can you update the lockfile?"
    assert directives_in(turn, transcript=True) == ["Use pnpm, not npm."]  # the clauses stay together: neither is a rule alone
    assert directives_in("user: we don't write them with Jest — we write them with Vitest", transcript=True) == ["Write tests with Vitest, not Jest."]
    assert directives_in("user: We store money in BIGINT columns — never floats", transcript=True) == []  # still no rule of its own


def test_people_in_a_chat_between_them_are_not_the_owner():
    chat = "user: Sam: we're going with polars after all\nSam: New Python code gets written in polars from now on\nPriya: we don't use Jest, we use Vitest"
    assert directives_in(chat, transcript=True) == []


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("pandas only, no polars", "New Python code gets written in polars from now on."),
        ("pandas only, no polars", "we're going with polars after all"),
        ("we write them with Jest, not Vitest", "we've settled on Vitest"),
        ("Always use npm.", "we'll use pnpm from here on"),
        ("we do use Jest, not Vitest, in this repo", "we don't use Jest, we use Vitest"),
        ("Always use spaces for indentation.", "always tabs"),
    ],
)
def test_a_newer_form_shares_the_key_of_the_older_choice(older, newer):
    found_older, found_newer = directive_in(older), directive_in(newer)
    assert found_older and found_newer and derive_key(found_older) == derive_key(found_newer)


def test_a_rule_for_one_part_never_shares_the_key_of_the_rule_for_everything():
    everywhere, legacy = directive_in("Use pnpm for everything."), directive_in("For the legacy app, always use npm for installs.")
    assert everywhere and legacy and derive_key(everywhere) != derive_key(legacy)
    assert derive_key(legacy) == derive_key(directive_in("In the legacy app, use pnpm for installs."))


@pytest.mark.parametrize(("turn", "directive"), [
    ("user: Also, we're dropping poetry. Use uv from now on — `uv add`, `uv run`, `uv sync`.", "Use uv, not poetry."),
    ("user: We got rid of Poetry this week. Dependencies get managed with uv from here on.", "Always manage dependencies with uv, not Poetry."),
    ("user: We ditched npm over the weekend. Please use pnpm for everything.", "Use pnpm for everything, not npm."),
])
def test_a_directive_right_after_a_dropped_value_of_its_kind_names_what_it_replaces(turn, directive):
    assert directives_in(turn, transcript=True) == [directive]


@pytest.mark.parametrize(("turn", "directive"), [
    ("user: We're dropping poetry. Always run the tests before pushing.", "Always run the tests before pushing."),  # another kind
    ("user: We ditched npm. Use pnpm, not yarn.", "Use pnpm, not yarn."),  # it says what it rules out
    ("user: We're dropping poetry. It kept breaking. Use uv from now on.", "Use uv."),  # not right after
    ("user: We're moving off HTTPoison. New code uses Req from now on.", "Use Req for new code."),  # no known kind
])
def test_otherwise_the_directive_stays_as_said(turn, directive):
    assert directives_in(turn, transcript=True) == [directive]


@pytest.mark.parametrize(("turn", "directive"), [
    ("user: The list comes from seeds/stations.csv. Tiago maintains it. Don't edit the seed yourself.", "Don't edit the seed (seeds/stations.csv) yourself."),
    ("user: Config lives in config/settings.toml. Never edit the settings file by hand.", "Never edit the settings file (config/settings.toml) by hand."),
    ("user: Secrets live in .env.local on your machine. Never commit the env file.", "Never commit the env file (.env.local)."),
])
def test_the_file_a_directive_names_is_the_one_the_turn_named_before(turn, directive):
    [found] = directives_in(turn, transcript=True)
    assert found == directive
    assert derive_key(found) == derive_key(found.split(" (")[0] + found.split(")", 1)[1]), "the key of the words said: it replaces the line without the file"


@pytest.mark.parametrize(("turn", "directive"), [
    ("user: We keep secrets in .env.local and env/dev.json. Never commit the env file.", "Never commit the env file."),  # which one?
    ("user: Never edit the seed yourself. The list comes from seeds/stations.csv.", "Never edit the seed yourself."),  # named after
    ("user: Never push to the main branch directly.", "Never push to the main branch directly."),  # nothing named
])
def test_without_one_file_named_before_the_directive_stays_as_said(turn, directive):
    assert directives_in(turn, transcript=True) == [directive]
