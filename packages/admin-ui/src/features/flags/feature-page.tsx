import * as Tabs from '@radix-ui/react-tabs';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../api/client';
import { EventList } from '../../components/event-list';
import { ActionButton } from '../../components/ui/action-button';
import { ConfirmDialog } from '../../components/ui/dialog';
import { Badge, ErrorNotice, Loading, PageHeader } from '../../components/ui/page';
import { answerOf } from '../../lib/api-answer';
import { useApiMutation } from '../../lib/use-api-mutation';
import { useWhyNot } from '../auth/permissions';
import { DraftBar } from '../change-requests/draft-bar';
import { useFeatureEvents } from './api/events';
import { featureKey, featureQueryOptions } from './api/feature';
import { EnvironmentPanel } from './environment-panel';
import { FeatureMeta } from './feature-meta';

function History({ featureName }: { featureName: string }) {
  const events = useFeatureEvents(featureName);
  if (events.isPending) return <Loading />;
  if (events.error && !events.data) return <ErrorNotice error={events.error} />;
  return <EventList events={events.data.events} />;
}

/** A feature: per-environment strategies and variants, metadata, dependencies, tags and history. */
export default function FeaturePage() {
  const { projectId = '', featureName = '' } = useParams();
  const feature = useQuery(featureQueryOptions(projectId, featureName));
  const whyNot = useWhyNot();
  const navigate = useNavigate();
  const [archiving, setArchiving] = useState(false);
  const path = { projectId, featureName };
  const stale = useApiMutation({
    mutationFn: (value: boolean) =>
      answerOf(
        api.PUT('/api/admin/projects/{projectId}/features/{featureName}', {
          params: { path },
          body: { stale: value },
        }),
      ),
    invalidates: [featureKey(projectId, featureName)],
    success: (_r, v) => (v ? 'Marked stale' : 'Marked active'),
  });
  const archive = useApiMutation({
    mutationFn: () =>
      answerOf(api.DELETE('/api/admin/projects/{projectId}/features/{featureName}', { params: { path } })),
    invalidates: [['projects', projectId]],
    success: `${featureName} archived`,
    onSuccess: () => navigate(`/projects/${encodeURIComponent(projectId)}`),
  });
  if (feature.isPending) return <Loading />;
  if (feature.error && !feature.data) return <ErrorNotice error={feature.error} />;
  const f = feature.data;
  const environments = [...f.environments].sort((a, b) => a.sortOrder - b.sortOrder);
  return (
    <>
      <div className="breadcrumbs">
        <Link to="/projects">Projects</Link> /{' '}
        <Link to={`/projects/${encodeURIComponent(projectId)}`}>{projectId}</Link> / {f.name}
      </div>
      <PageHeader
        title={
          <span className="row">
            {f.name} <Badge>{f.type}</Badge> <Badge tone="info">{f.lifecycle.stage}</Badge>
            {f.stale ? <Badge tone="warn">stale</Badge> : null}
          </span>
        }
        subtitle={f.description}
        actions={
          <>
            <Link
              className="btn"
              to={`/playground?projects=${encodeURIComponent(projectId)}&feature=${encodeURIComponent(f.name)}`}
            >
              Open in playground
            </Link>
            <ActionButton
              type="button"
              className="btn"
              disabledReason={whyNot('UPDATE_FEATURE', { project: projectId })}
              onClick={() => stale.mutate(!f.stale)}
            >
              {f.stale ? 'Mark active' : 'Mark stale'}
            </ActionButton>
            <ActionButton
              type="button"
              className="btn btn-danger"
              disabledReason={whyNot('DELETE_FEATURE', { project: projectId })}
              onClick={() => setArchiving(true)}
            >
              Archive
            </ActionButton>
          </>
        }
      />
      <DraftBar project={f.project} feature={f.name} />
      <Tabs.Root defaultValue="environments">
        <Tabs.List className="tabs-list" aria-label="Feature sections">
          <Tabs.Trigger className="tabs-trigger" value="environments">
            Environments
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs-trigger" value="details">
            Details, tags &amp; dependencies
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs-trigger" value="history">
            History
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="environments">
          {environments.map((env) => (
            <EnvironmentPanel key={env.name} feature={f} env={env} />
          ))}
        </Tabs.Content>
        <Tabs.Content value="details">
          <FeatureMeta feature={f} />
        </Tabs.Content>
        <Tabs.Content value="history">
          <History featureName={f.name} />
        </Tabs.Content>
      </Tabs.Root>
      <ConfirmDialog
        open={archiving}
        onOpenChange={setArchiving}
        title="Archive feature"
        message={`Archive ${f.name}? SDKs stop receiving it; you can revive it from the archive.`}
        confirmLabel="Archive"
        danger
        onConfirm={() => archive.mutate()}
      />
    </>
  );
}
