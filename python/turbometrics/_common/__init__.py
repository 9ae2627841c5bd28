"""Private utilities shared by every area: input validation, parameter
constraints, threads, exceptions, the mergeable-state base and its
serialisation, array adapters and the CLI's input errors."""
