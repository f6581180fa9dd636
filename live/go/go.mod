module github.com/libtokenring/tokenring/live/go

go 1.19

require github.com/libtokenring/tokenring/bindings/go v0.0.0

replace github.com/libtokenring/tokenring/bindings/go => ../../bindings/go
