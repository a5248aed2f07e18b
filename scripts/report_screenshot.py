"""Refresh ``docs/report.png``: the demo workspace's report, rendered by headless Chromium.

Run: ``python scripts/report_screenshot.py [--out docs/report.png] [--size 1100,1400]``.
Needs ``chromium`` (Debian: ``apt-get install chromium``). No network: the page is a
``file://`` URL and every host name resolves to nothing.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

QUIET = (
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-default-apps",
    "--host-resolver-rules=MAP * ~NOTFOUND", "--hide-scrollbars", "--force-device-scale-factor=1",
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "report.png")
    parser.add_argument("--size", default="1100,1400", help="window WIDTH,HEIGHT in pixels")
    args = parser.parse_args()
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        sys.exit("chromium is not installed (apt-get install chromium)")
    from clawmem import report
    from clawmem.demo import run_demo

    with tempfile.TemporaryDirectory(prefix="clawmem-shot-") as scratch:
        ws = run_demo(Path(scratch) / "demo-workspace", say=lambda step: None)
        page = report.write(ws, Path(scratch) / "report.html")
        subprocess.run(
            [exe, *QUIET, f"--user-data-dir={scratch}/profile", f"--screenshot={args.out.resolve()}", f"--window-size={args.size}", page.as_uri()],
            check=True, capture_output=True, timeout=180,
        )
    print(f"{args.out} ({args.out.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
