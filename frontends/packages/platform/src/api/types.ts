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
  CreateRecoveryCodesResponseJson,
  CreateUserRequestJson,
  CreateUserResponseJson,
  FinishGoogleAuthRequestJson,
  FinishGoogleAuthResponseJson,
  GetMetricsCategoryResponseJson,
  AuditLogEntryJson,
  GetProfileResponseJson,
  ListAuditLogResponseJson,
  ListMetricsUsersResponseJson,
  ResetPasswordRequestJson,
  ResetPasswordResponseJson,
  SwitchMetricsCategoryRequestJson,
  SwitchMetricsCategoryResponseJson,
  UpdateEmailRequestJson,
  UpdateEmailResponseJson,
  UseRecoveryCodeRequestJson,
  UseRecoveryCodeResponseJson,
  UserJson,
} from '../gen/uplift/users/v1/users_service_pb';
export type {
  CreateIdentityVerificationRequestJson,
  CreateIdentityVerificationResponseJson,
  GetIdentityVerificationResponseJson,
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
  CatalogueProductJson,
  CheckResultJson,
  CompetitorScoreJson,
  CreateCategoryRequestJson,
  CreateCategoryResponseJson,
  FindingJson,
  GetContentGenerationParamsResponseJson,
  GetEmailPreferencesResponseJson,
  GetInsightsResponseJson,
  GetLabelResponseJson,
  GetWebsiteScoreResponseJson,
  IdeaJson,
  ListCatalogueProductsResponseJson,
  InsightJson,
  ListRecentIdeasResponseJson,
  ReportJson,
  ReportStatusJson,
  SendAIEmailDigestResponseJson,
  SpeedJson,
  UpdateContentGenerationParamsRequestJson,
  UpdateContentGenerationParamsResponseJson,
  UpdateEmailPreferencesRequestJson,
  UpdateEmailPreferencesResponseJson,
  UpdateLabelRequestJson,
  UpdateLabelResponseJson,
} from '../gen/uplift/categories/v1/categories_service_pb';
// Store connections (Connections page); orders, products and customers counts are int64, so strings.
export type {
  DisconnectShopifyResponseJson,
  DisconnectWooCommerceResponseJson,
  DisconnectGA4ResponseJson,
  GA4ConnectionJson,
  GA4PropertyJson,
  GetConnectionsResponseJson,
  ListGA4PropertiesResponseJson,
  SelectGA4PropertyResponseJson,
  StartGA4ConnectResponseJson,
  SyncGA4ResponseJson,
  ImportOrdersRequestJson,
  ImportOrdersResponseJson,
  OrderImportJson,
  ShopifyConnectionJson,
  StartShopifyConnectRequestJson,
  StartShopifyConnectResponseJson,
  StartWooCommerceConnectRequestJson,
  StartWooCommerceConnectResponseJson,
  StoreCountsJson,
  SyncProgressJson,
  SyncShopifyResponseJson,
  SyncWooCommerceResponseJson,
  WooCommerceConnectionJson,
} from '../gen/uplift/stores/v1/stores_service_pb';
// Store numbers (Analytics, the daily report): int64 counts arrive as JSON strings, money as decimal strings.
export type {
  DailyReportJson,
  DayMetricsJson,
  GetMetricsResponseJson,
  ProductSalesJson,
  ReportMetricJson,
} from '../gen/uplift/stores/v1/stores_service_pb';

// The product image studio; image bytes travel as base64 strings.
export type {
  BrushStrokeJson as StudioBrushStrokeJson,
  EditMaskResponseJson as EditStudioMaskResponseJson,
  ImportProductImageResponseJson as ImportStudioProductImageResponseJson,
  CreateJobRequestJson as CreateStudioJobRequestJson,
  CreateJobResponseJson as CreateStudioJobResponseJson,
  DownloadResultResponseJson as DownloadStudioResultResponseJson,
  GetImagePreviewResponseJson as GetStudioImagePreviewResponseJson,
  GetResultPreviewResponseJson as GetStudioResultPreviewResponseJson,
  GetStudioPlanResponseJson,
  ImageJson as StudioImageJson,
  JobJson as StudioJobJson,
  ListJobsResponseJson as ListStudioJobsResponseJson,
  ResultJson as StudioResultJson,
  UploadImageResponseJson as UploadStudioImageResponseJson,
} from '../gen/uplift/studio/v1/studio_service_pb';

/**
 * The tiers endpoint answers with the map itself (the gateway's response_body
 * is `tiers`), keyed by tier id.
 */
export type SubscriptionTiersJson = NonNullable<ListSubscriptionTiersResponseJson['tiers']>;
