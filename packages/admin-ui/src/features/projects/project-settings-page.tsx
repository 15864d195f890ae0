import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { Badge, ErrorNotice, Loading, PageHeader } from '../../components/ui/page';
import { useCan } from '../auth/permissions';
import { getProjectQueryOptions, projectEnvironmentsQueryOptions } from './api';
import { ProjectContextFieldsCard } from './settings-context-fields-card';
import { DeleteProjectCard } from './settings-delete-card';
import { EnvironmentsSettingsCard } from './settings-environments-card';
import { GeneralSettingsCard } from './settings-general-card';
import { MembersCard } from './settings-members-card';

/**
 * A project's settings: general and naming, members, environments with default strategies, the
 * project's own context fields, deletion.
 */
export default function ProjectSettingsPage() {
  const projectId = useParams().projectId ?? '';
  const project = useQuery(getProjectQueryOptions(projectId));
  const environments = useQuery(projectEnvironmentsQueryOptions(projectId));
  const can = useCan();
  if (project.isPending) return <Loading />;
  if (project.error) return <ErrorNotice error={project.error} />;
  const p = project.data;
  const canEdit = can('UPDATE_PROJECT', { project: projectId });
  const encoded = encodeURIComponent(projectId);
  return (
    <>
      <div className="breadcrumbs">
        <Link to="/projects">Projects</Link> / <Link to={`/projects/${encoded}`}>{p.id}</Link> / settings
      </div>
      <PageHeader
        title={`${p.name}: settings`}
        subtitle={
          <>
            <Badge tone={p.mode === 'private' ? 'warn' : p.mode === 'protected' ? 'info' : 'neutral'}>
              {p.mode}
            </Badge>{' '}
            {canEdit
              ? null
              : 'You may look at these settings; changing them needs UPDATE_PROJECT in this project.'}
          </>
        }
        actions={
          <Link className="btn" to={`/projects/${encoded}`}>
            Back to flags
          </Link>
        }
      />
      <div className="settings-layout">
        {/* Keyed by updatedAt: a saved change (or one from elsewhere) resets the form to what is stored. */}
        <GeneralSettingsCard key={p.updatedAt ?? p.createdAt} project={p} canEdit={canEdit} />
        <MembersCard projectId={projectId} canEdit={canEdit} />
        <EnvironmentsSettingsCard
          projectId={projectId}
          linked={environments.data ?? []}
          canEdit={canEdit}
          defaultStickiness={p.defaultStickiness}
        />
        <ProjectContextFieldsCard projectId={projectId} canEdit={canEdit} />
        <DeleteProjectCard project={p} canDelete={can('DELETE_PROJECT', { project: projectId })} />
      </div>
    </>
  );
}
