module uplift.dev/devstack

go 1.26.0

require (
	github.com/jackc/pgx/v5 v5.12.0
	github.com/nats-io/nats-server/v2 v2.15.2
	go.yaml.in/yaml/v3 v3.0.5
	uplift.dev/platform v0.0.0
	uplift.dev/billing v0.0.0
	uplift.dev/categories v0.0.0
	uplift.dev/digest v0.0.0
	uplift.dev/review v0.0.0
	uplift.dev/stores v0.0.0
	uplift.dev/studio v0.0.0
	uplift.dev/users v0.0.0
	uplift.dev/gateway v0.0.0
	uplift.dev/shopifysim v0.0.0
	uplift.dev/ga4sim v0.0.0
	uplift.dev/simkit v0.0.0
)

require (
	github.com/antithesishq/antithesis-sdk-go v0.8.0-default-no-op // indirect
	github.com/beorn7/perks v1.0.1 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/golang-jwt/jwt/v5 v5.3.1 // indirect
	github.com/google/go-tpm v0.9.8 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/pgservicefile v0.0.0-20240606120523-5a60cdf6a761 // indirect
	github.com/jackc/puddle/v2 v2.2.3 // indirect
	github.com/klauspost/compress v1.20.3 // indirect
	github.com/minio/highwayhash v1.0.4 // indirect
	github.com/munnerz/goautoneg v0.0.0-20191010083416-a7dc8b61c822 // indirect
	github.com/nats-io/jwt/v2 v2.8.2 // indirect
	github.com/nats-io/nats.go v1.55.0 // indirect
	github.com/nats-io/nkeys v0.4.16 // indirect
	github.com/nats-io/nuid v1.0.1 // indirect
	github.com/prometheus/client_golang v1.25.0 // indirect
	github.com/prometheus/client_model v0.6.3 // indirect
	github.com/prometheus/common v0.72.0 // indirect
	github.com/prometheus/procfs v0.22.0 // indirect
	golang.org/x/crypto v0.58.0 // indirect
	golang.org/x/sync v0.24.0
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	golang.org/x/time v0.16.0 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)

replace uplift.dev/proto => ../../proto

replace uplift.dev/platform => ../../services/platform

replace uplift.dev/shopifysim => ../shopifysim

replace uplift.dev/ga4sim => ../ga4sim

replace uplift.dev/simkit => ../simkit

replace uplift.dev/billing => ../../services/billing

replace uplift.dev/categories => ../../services/categories

replace uplift.dev/digest => ../../services/digest

replace uplift.dev/review => ../../services/review

replace uplift.dev/stores => ../../services/stores

replace uplift.dev/studio => ../../services/studio

replace uplift.dev/users => ../../services/users

replace uplift.dev/gateway => ../../gateway
