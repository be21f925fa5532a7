module iorace.local/kit

go 1.19
