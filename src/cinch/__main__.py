"""``python -m cinch``: the same command line as the ``cinch`` script."""

from cinch.cli import main

if __name__ == "__main__":  # pragma: no cover - run as a program
    main(prog_name="cinch")
