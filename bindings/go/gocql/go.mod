module github.com/libtokenring/tokenring/bindings/go/gocql

go 1.19

require (
	github.com/gocql/gocql v1.7.0
	github.com/libtokenring/tokenring/bindings/go v0.0.0
)

require (
	github.com/golang/snappy v0.0.3 // indirect
	github.com/hailocab/go-hostpool v0.0.0-20160125115350-e80d13ce29ed // indirect
	gopkg.in/inf.v0 v0.9.1 // indirect
)

replace github.com/libtokenring/tokenring/bindings/go => ../
