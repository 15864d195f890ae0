// Types of the API's answers that component props take, each aliased from the client generated out of
// the OpenAPI document (`schema.d.ts`): the operation's answer, or a part of it. No hand-written shapes.
import type { paths } from './schema';

type Json<R> = R extends { content: { 'application/json': infer T } } ? T : never;
/** The JSON body of a route's successful answer, as the OpenAPI document types it. */
type Answer<P extends keyof paths, M extends 'get' | 'post' | 'put' = 'get'> = paths[P][M] extends {
  responses: infer Rs;
}
  ? Rs extends { 200: infer R }
    ? Json<R>
    : Rs extends { 201: infer R }
      ? Json<R>
      : never
  : never;

export type FeatureView = Answer<'/api/admin/projects/{projectId}/features/{featureName}'>;
export type FeatureEnvironmentView = FeatureView['environments'][number];
export type FeatureStrategy = FeatureEnvironmentView['strategies'][number];
export type Payload = NonNullable<FeatureEnvironmentView['variants'][number]['payload']>;
export type Dependency = FeatureView['dependencies'][number];
export type Tag = FeatureView['tags'][number];

export type Project = Answer<'/api/admin/projects'>['projects'][number];
export type ProjectEnvironmentView =
  Answer<'/api/admin/environments/project/{projectId}'>['environments'][number];
export type Environment = Answer<'/api/admin/environments'>['environments'][number];
export type ContextField = Answer<'/api/admin/context'>[number];
export type Segment = Answer<'/api/admin/segments'>['segments'][number];
export type TagType = Answer<'/api/admin/tag-types'>['tagTypes'][number];

export type Role = Answer<'/api/admin/roles'>['roles'][number];
export type UserView = Answer<'/api/admin/user-admin'>['users'][number];

export type ChangeRequestView = Answer<'/api/admin/projects/{projectId}/change-requests/{id}'>;
export type ChangeView = ChangeRequestView['features'][number]['changes'][number];

export type FlagstaffEvent = Answer<'/api/admin/events/{featureName}'>['events'][number];

export type AddonView = Answer<'/api/admin/addons'>['addons'][number];
export type AddonProviderDefinition = Answer<'/api/admin/addons'>['providers'][number];
export type QueuedDeliveryView = Answer<'/api/admin/addons/{id}/deliveries'>['deliveries'][number];
export type IntegrationEvent = Answer<'/api/admin/addons/{id}/events'>['integrationEvents'][number];

export type PlaygroundFeature = Answer<'/api/admin/playground', 'post'>['features'][number];
export type PlaygroundStrategy = PlaygroundFeature['strategies']['data'][number];

/** The query of `GET /api/admin/search/features` (Unleash's `searchFeatures` syntax). */
export type FeatureSearchQuery = NonNullable<
  NonNullable<paths['/api/admin/search/features']['get']['parameters']['query']>
>;
/** A row of `GET /api/admin/search/features`. */
export type FeatureSearchItem = Answer<'/api/admin/search/features'>['features'][number];
