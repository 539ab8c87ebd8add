"""`python -m kb` runs the command line (same as `kb`)."""

from kb.cli import run

if __name__ == "__main__":
    run()
