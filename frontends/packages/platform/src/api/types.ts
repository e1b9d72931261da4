/**
 * Wire types for the endpoints the frontends call, generated from the protos
 * (`make proto`, protoc-gen-es with json_types). Proto3 JSON omits default
 * values, so every field is optional. Type-only: no protobuf runtime is bundled.
 */
import type { ListSubscriptionTiersResponseJson } from '../gen/uplift/billing/v1/billing_service_pb';

export type {
  BillingInfoJson,
  CreateOnboardingRequestJson,
  CreateOnboardingResponseJson,
  CreateUserRequestJson,
  CreateUserResponseJson,
  GetMetricsCategoryResponseJson,
  GetProfileResponseJson,
  UserJson,
} from '../gen/uplift/users/v1/users_service_pb';
export type {
  CreateStripeCheckoutRequestJson,
  CreateStripeCheckoutResponseJson,
  CreateStripeCustomerPortalRequestJson,
  CreateStripeCustomerPortalResponseJson,
  ListSubscriptionTiersResponseJson,
  PriceJson,
  SetBillingRequestJson,
  SetBillingResponseJson,
  SubscriptionTierJson,
} from '../gen/uplift/billing/v1/billing_service_pb';
export type {
  CreateCategoryRequestJson,
  CreateCategoryResponseJson,
} from '../gen/uplift/categories/v1/categories_service_pb';

/**
 * The tiers endpoint answers with the map itself (the gateway's response_body
 * is `tiers`), keyed by tier id.
 */
export type SubscriptionTiersJson = NonNullable<ListSubscriptionTiersResponseJson['tiers']>;
