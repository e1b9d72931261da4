module uplift.dev/ga4sim

go 1.26.0

require (
	uplift.dev/shopifysim v0.0.0
	uplift.dev/simkit v0.0.0
)

require github.com/graphql-go/graphql v0.8.1 // indirect

replace uplift.dev/shopifysim => ../shopifysim

replace uplift.dev/simkit => ../simkit
