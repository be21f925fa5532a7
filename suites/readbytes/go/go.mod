module iorace/readbytes

go 1.19
