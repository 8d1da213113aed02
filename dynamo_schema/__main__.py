from dynamo_schema._cli._main import main

raise SystemExit(main(prog="python -m dynamo_schema"))
