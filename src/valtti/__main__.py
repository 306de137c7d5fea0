from valtti.cli import main

main()
