module github.com/libtokenring/tokenring/bindings/go

go 1.19
