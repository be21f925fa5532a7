from iorace.cli import main

main()
