"""Command line entry point: python -m greeter.cli NAME.

Prints one greeting line and exits with status 0. The output is meant to be
read by scripts as well as people, so it never prints anything else.
"""

import argparse

from greeter.greeting import greet


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="greeter", description="Say hello.")
    parser.add_argument("name", nargs="?", default="world")
    parser.add_argument("--shout", action="store_true", help="print in capitals")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    line = greet(args.name)
    print(line.upper() if args.shout else line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
