module uplift.dev/simkit

go 1.26.0
