"""What ``pip install clawmem-cli`` puts on disk: man pages and completions, found by ``clawmem man``/``completion`` and by man(1).

Built and installed for real: a wheel from this checkout (pip, with build isolation: it needs
the build backend from the package index or pip's cache, so it skips when neither is
reachable — outside our control), installed without dependencies into a fresh virtual
environment that borrows this environment's dependencies through PYTHONPATH.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e  # packaging: the built wheel installed and run

ROOT = Path(__file__).resolve().parents[2]
CLAWMEM = str(Path(sys.executable).with_name("clawmem"))


def _run(*args: str, env: dict | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(list(args), capture_output=True, text=True, env=env, timeout=timeout, check=False)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    built = _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT))
    if built.returncode != 0:
        pytest.skip(f"cannot build a wheel here (no package index for the build backend?): {built.stderr.strip()[-300:]}")
    wheel = next(out.glob("clawmem_cli-*.whl"))
    venv = out / "venv"
    assert _run(sys.executable, "-m", "venv", "--without-pip", str(venv)).returncode == 0
    pip = _run(sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q", "--no-deps", "--no-index", str(wheel))
    assert pip.returncode == 0, pip.stderr
    env = {**os.environ, "PYTHONPATH": site.getsitepackages()[0], "PATH": f"{venv / 'bin'}{os.pathsep}/usr/bin{os.pathsep}/bin"}
    env.pop("MANPATH", None)
    return wheel, venv, env


@pytest.mark.slow
def test_the_wheel_ships_every_man_page_and_completion(installed):
    wheel, _, _ = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    for page in (ROOT / "man").glob("*.1"):
        assert f"clawmem_cli-0.1.0.data/data/share/man/man1/{page.name}" in names
    for shell in ("bash", "zsh", "fish"):
        assert f"clawmem_cli-0.1.0.data/data/share/clawmem/completions/clawmem.{shell}" in names


@pytest.mark.slow
def test_the_installed_command_finds_its_pages_and_scripts(installed):
    _, venv, env = installed
    exe = str(venv / "bin" / "clawmem")
    where = _run(exe, "man", "init", "--path", env=env)
    assert where.returncode == 0 and Path(where.stdout.strip()) == venv / "share" / "man" / "man1" / "clawmem-init.1"
    for shell in ("bash", "zsh", "fish"):
        script = _run(exe, "completion", shell, env=env)
        assert script.returncode == 0 and script.stdout == (ROOT / "completions" / f"clawmem.{shell}").read_text()
    if shutil.which("man"):
        page = _run(exe, "man", "note", "add", env=env)
        assert page.returncode == 0 and "--origin" in page.stdout and "\x08" not in page.stdout
        readme_way = _run("man", "-w", "clawmem-init", env=env)  # the README's `man clawmem-init`, venv bin on PATH
        assert readme_way.returncode == 0 and readme_way.stdout.strip() == str(venv / "share" / "man" / "man1" / "clawmem-init.1")


def test_completion_and_man_from_this_install(clawmem):
    for shell in ("bash", "zsh", "fish"):
        result = clawmem("completion", shell)
        assert result.returncode == 0 and result.stdout == (ROOT / "completions" / f"clawmem.{shell}").read_text()
    assert clawmem("completion", "tcsh").returncode == 2
    missing = clawmem("man", "no-such-command")
    assert missing.returncode == 1 and "no manual page" in missing.stderr
    assert clawmem("man", "../../etc/passwd").returncode == 1
    listed = clawmem("man", "--path")
    assert listed.returncode == 0 and Path(listed.stdout.strip()).name == "clawmem.1"
