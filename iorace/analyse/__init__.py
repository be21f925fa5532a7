"""From stored runs to numbers: statistics (intervals, paired ratios), a session's groups and ratios, the
leaders across tables, pooled sessions and the planning of rounds (dimension)."""
