from boundcalc.cli.app import main

main()
