module gojson
go 1.22
