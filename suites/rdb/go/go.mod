module rdbrace

go 1.21
