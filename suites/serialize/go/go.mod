module iorace/serialize

go 1.21
