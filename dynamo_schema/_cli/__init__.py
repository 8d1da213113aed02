"""The command line (check-jsonschema's split): parsing and commands; the reporters are ``_report/``.

* ``_main.py`` - ``main(argv, stdout, stderr)``: the entry point (console script, ``python -m
  dynamo_schema``), dispatch to ``commands/NAME.py``, exit codes and error printing.
* ``_parser.py`` - the argparse parsers, and ``validate``'s fast path that builds only its own.
* ``_options.py`` - the shared options (validate's, settings, render's) and their values read.
* ``_common.py`` - what the commands share: ``UsageError`` (exit 2), reading inputs, report lines.
* ``commands/`` - one module per subcommand, each ``run(ns, stdout, stderr) -> exit status``.
* the output formats are ``_report/`` (one module per format; the commands pick one with ``_report.make``).
"""
