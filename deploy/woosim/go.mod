module uplift.dev/woosim

go 1.26.0

require (
	uplift.dev/shopifysim v0.0.0
	uplift.dev/simkit v0.0.0
)

replace uplift.dev/shopifysim => ../shopifysim

replace uplift.dev/simkit => ../simkit
