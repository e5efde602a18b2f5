"""Command line entry point: python -m greeter.cli NAME.

Prints one greeting line and exits with status 0. The output is meant to be
read by scripts as well as people, so it never prints anything else.
"""

import argparse

from greeter.core import greet


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="greeter", description="Say hello.")
    parser.add_argument("name", nargs="?", default="world")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    print(greet(args.name))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
