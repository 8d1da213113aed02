"""The command line: argument parsing, commands, reporters, rule help."""
