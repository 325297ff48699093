"""``python -m cinch.cli``: the same command line as ``cinch``."""

from cinch.cli import main

if __name__ == "__main__":  # pragma: no cover - run as a program
    main(prog_name="cinch")
