module uplift.dev/shopifysim

go 1.26.0

require github.com/graphql-go/graphql v0.8.1 // indirect

require uplift.dev/simkit v0.0.0

replace uplift.dev/simkit => ../simkit
