"""One module per subcommand: ``run(ns, stdout, stderr) -> exit status`` (dispatched by ``_cli/_main.py``).

``validate_kustomize.py`` is part of ``validate``: its ``--patch FILE`` and ``--kustomize DIR`` inputs.
"""
