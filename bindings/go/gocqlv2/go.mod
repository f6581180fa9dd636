module github.com/libtokenring/tokenring/bindings/go/gocqlv2

go 1.19

require (
	github.com/apache/cassandra-gocql-driver/v2 v2.1.2
	github.com/libtokenring/tokenring/bindings/go v0.0.0
)

require gopkg.in/inf.v0 v0.9.1 // indirect

replace github.com/libtokenring/tokenring/bindings/go => ../
