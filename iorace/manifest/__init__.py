"""What a suite declares: suite.toml's schema, the suites found on disk, the toolchains, and their expansion
into cells (suite x dataset x parameters x variant x toolchain x profile), seeds' rows among them."""
