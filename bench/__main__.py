import sys

from .cli import main

if __name__ == "__main__":  # not in a process started by multiprocessing
    sys.exit(main())
