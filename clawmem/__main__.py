"""``python -m clawmem``: the same entry point as the console script."""

from clawmem.launcher import main

if __name__ == "__main__":
    main()
