from dynamo_schema._cli._main import run

run(prog="python -m dynamo_schema")
