"""One module per subcommand: ``run(ns, stdout, stderr) -> exit status`` (dispatched by ``_cli/_main.py``).
"""
