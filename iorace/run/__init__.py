"""The pipeline of `iorace run`: build -> data -> verify -> (count) -> measure, each cell saved to the store
as it goes. It prints progress, never the report: `iorace run` shows the stored session as `show` does."""
