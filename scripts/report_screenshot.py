"""Refresh ``docs/report.png``: the demo workspace's report, rendered by headless Chromium.

Run: ``python scripts/report_screenshot.py [--out docs/report.png] [--size 1100,1400]``.
Needs ``chromium`` (Debian: ``apt-get install chromium``). No network: the page is a
``file://`` URL and every host name resolves to nothing. It also prints the page's full
height at that width (the report should stay short): measured on a copy of the page with
its CSP removed and one line of script added, since the page itself runs none.
"""

from __future__ import annotations

import argparse
import re
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


def page_height(exe: str, page: Path, width: int, scratch: str) -> int:
    """The page's scroll height in pixels at ``width``, read from a measuring copy's title."""
    html = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", page.read_text(encoding="utf-8"), count=1)
    probe = page.with_name("measure.html")
    probe.write_text(html.replace("</body>", "<script>document.title = 'height ' + document.documentElement.scrollHeight</script></body>"), encoding="utf-8")
    dom = subprocess.run(
        [exe, *QUIET, f"--user-data-dir={scratch}/profile-measure", f"--window-size={width},800", "--dump-dom", probe.as_uri()],
        check=True, capture_output=True, timeout=180,
    ).stdout.decode("utf-8", errors="replace")
    return int(re.search(r"<title>height (\d+)</title>", dom)[1])  # type: ignore[index]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "report.png")
    parser.add_argument("--size", default="1100,1400", help="window WIDTH,HEIGHT in pixels")
    args = parser.parse_args()
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        sys.exit("chromium is not installed (apt-get install chromium)")
    from clawmem import report
    from clawmem.commands.demo import run_demo

    with tempfile.TemporaryDirectory(prefix="clawmem-shot-") as scratch:
        ws = run_demo(Path(scratch) / "demo-workspace", say=lambda step: None)
        page = report.write(ws, Path(scratch) / "report.html")
        subprocess.run(
            [exe, *QUIET, f"--user-data-dir={scratch}/profile", f"--screenshot={args.out.resolve()}", f"--window-size={args.size}", page.as_uri()],
            check=True, capture_output=True, timeout=180,
        )
        height = page_height(exe, page, int(args.size.split(",")[0]), scratch)
    print(f"{args.out} ({args.out.stat().st_size // 1024} KiB); the whole page is {height} px tall at this width")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
