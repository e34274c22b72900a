"""``python3 -m batchnormgrad COMMAND ...``: the package's command line.

A thin dispatcher, as bngcert's main: each subcommand lives in its own module, which adds its
parser (``add_parser``) and sets ``run``, returning the exit status.
"""

import argparse
import sys

from . import audit_cli


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m batchnormgrad",
                                     description="batchnormgrad from the command line")
    subcommands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    audit_cli.add_parser(subcommands)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
