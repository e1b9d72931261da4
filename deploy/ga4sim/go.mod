module uplift.dev/ga4sim

go 1.26.0

require uplift.dev/shopifysim v0.0.0

replace uplift.dev/shopifysim => ../shopifysim

require uplift.dev/simkit v0.0.0

replace uplift.dev/simkit => ../simkit
