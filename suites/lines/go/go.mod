module iorace/suites/lines

go 1.21
