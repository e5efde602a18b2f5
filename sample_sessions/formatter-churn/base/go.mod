module example.com/linkcheck

go 1.22
