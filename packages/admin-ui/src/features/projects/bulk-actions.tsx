import * as Menu from '@radix-ui/react-dropdown-menu';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import type { ProjectEnvironmentView } from '../../api/types';
import { ActionButton } from '../../components/ui/action-button';
import { ConfirmDialog, Dialog } from '../../components/ui/dialog';
import { Field } from '../../components/ui/page';
import { answerOf } from '../../lib/api-answer';
import { useApiMutation } from '../../lib/use-api-mutation';
import { useCan, useWhyNot } from '../auth/permissions';
import { projectKeys, useTagTypes } from './api';

interface Props {
  projectId: string;
  selected: string[];
  environments: ProjectEnvironmentView[];
  onDone(): void;
}

/** Actions on the selected features: switch in an environment, tag, mark stale, archive. */
export function BulkActions({ projectId, selected, environments, onDone }: Props) {
  const can = useCan();
  const whyNot = useWhyNot();
  const [tagging, setTagging] = useState(false);
  const [archiving, setArchiving] = useState(false);
  const [pendingProd, setPendingProd] = useState<{ environment: string; on: boolean } | null>(null);
  const invalidates = [projectKeys.features(projectId)];
  const path = { projectId };
  const toggle = useApiMutation({
    mutationFn: ({ environment, on }: { environment: string; on: boolean }) =>
      answerOf(
        on
          ? api.POST('/api/admin/projects/{projectId}/bulk_features/environments/{environment}/on', {
              params: { path: { projectId, environment } },
              body: { features: selected },
            })
          : api.POST('/api/admin/projects/{projectId}/bulk_features/environments/{environment}/off', {
              params: { path: { projectId, environment } },
              body: { features: selected },
            }),
      ),
    invalidates,
    success: (_r, v) => `${selected.length} feature(s) turned ${v.on ? 'on' : 'off'} in ${v.environment}`,
    onSuccess: onDone,
  });
  const stale = useApiMutation({
    mutationFn: (value: boolean) =>
      answerOf(
        api.POST('/api/admin/projects/{projectId}/stale', {
          params: { path },
          body: { features: selected, stale: value },
        }),
      ),
    invalidates,
    success: (_r, v) => `${selected.length} feature(s) marked ${v ? 'stale' : 'active'}`,
    onSuccess: onDone,
  });
  const archive = useApiMutation({
    mutationFn: () =>
      answerOf(
        api.POST('/api/admin/projects/{projectId}/archive', {
          params: { path },
          body: { features: selected },
        }),
      ),
    invalidates,
    success: `${selected.length} feature(s) archived`,
    onSuccess: onDone,
  });
  const run = (environment: ProjectEnvironmentView, on: boolean) =>
    environment.type === 'production'
      ? setPendingProd({ environment: environment.name, on })
      : toggle.mutate({ environment: environment.name, on });
  return (
    <section className="bulk-bar" aria-label="Bulk actions">
      <strong>{selected.length} selected</strong>
      <Menu.Root>
        <Menu.Trigger className="btn btn-small">Enable / disable ▾</Menu.Trigger>
        <Menu.Portal>
          <Menu.Content className="menu" align="start">
            {environments.map((env) => (
              <div key={env.name}>
                <Menu.Label className="menu-label">{env.name}</Menu.Label>
                <Menu.Item
                  className="menu-item"
                  disabled={!can('UPDATE_FEATURE_ENVIRONMENT', { project: projectId, environment: env.name })}
                  onSelect={() => run(env, true)}
                >
                  Enable in {env.name}
                </Menu.Item>
                <Menu.Item
                  className="menu-item"
                  disabled={!can('UPDATE_FEATURE_ENVIRONMENT', { project: projectId, environment: env.name })}
                  onSelect={() => run(env, false)}
                >
                  Disable in {env.name}
                </Menu.Item>
              </div>
            ))}
          </Menu.Content>
        </Menu.Portal>
      </Menu.Root>
      <ActionButton
        type="button"
        className="btn btn-small"
        disabledReason={whyNot('UPDATE_FEATURE', { project: projectId })}
        onClick={() => setTagging(true)}
      >
        Tag
      </ActionButton>
      <ActionButton
        type="button"
        className="btn btn-small"
        disabledReason={whyNot('UPDATE_FEATURE', { project: projectId })}
        onClick={() => stale.mutate(true)}
      >
        Mark stale
      </ActionButton>
      <ActionButton
        type="button"
        className="btn btn-small"
        disabledReason={whyNot('UPDATE_FEATURE', { project: projectId })}
        onClick={() => stale.mutate(false)}
      >
        Mark active
      </ActionButton>
      <ActionButton
        type="button"
        className="btn btn-small btn-danger"
        disabledReason={whyNot('DELETE_FEATURE', { project: projectId })}
        onClick={() => setArchiving(true)}
      >
        Archive
      </ActionButton>
      <button type="button" className="btn btn-small btn-ghost" onClick={onDone}>
        Clear
      </button>
      <ConfirmDialog
        open={archiving}
        onOpenChange={setArchiving}
        title="Archive features"
        message={`Archive ${selected.length} feature(s)? SDKs stop receiving them.`}
        confirmLabel="Archive"
        danger
        onConfirm={() => archive.mutate()}
      />
      <ConfirmDialog
        open={pendingProd !== null}
        onOpenChange={(open) => !open && setPendingProd(null)}
        title="Change a production environment"
        message={`${pendingProd?.on ? 'Enable' : 'Disable'} ${selected.length} feature(s) in ${pendingProd?.environment}, a production environment?`}
        confirmLabel="Yes, change production"
        danger
        onConfirm={() => pendingProd && toggle.mutate(pendingProd)}
      />
      <BulkTagDialog
        open={tagging}
        onOpenChange={setTagging}
        projectId={projectId}
        selected={selected}
        onDone={onDone}
      />
    </section>
  );
}

function BulkTagDialog({
  open,
  onOpenChange,
  projectId,
  selected,
  onDone,
}: {
  open: boolean;
  onOpenChange(o: boolean): void;
  projectId: string;
  selected: string[];
  onDone(): void;
}) {
  const tagTypes = useTagTypes();
  const [type, setType] = useState('simple');
  const [value, setValue] = useState('');
  const tag = useApiMutation({
    mutationFn: () =>
      answerOf(
        api.PUT('/api/admin/projects/{projectId}/tags', {
          params: { path: { projectId } },
          body: { features: selected, tags: { addedTags: [{ type, value }], removedTags: [] } },
        }),
      ),
    invalidates: [projectKeys.features(projectId)],
    success: `Tagged ${selected.length} feature(s)`,
    onSuccess: () => {
      onOpenChange(false);
      onDone();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (value.trim()) tag.mutate();
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={`Tag ${selected.length} feature(s)`}>
      <form onSubmit={submit}>
        <div className="form-grid">
          <Field label="Tag type" htmlFor="bulk-tag-type">
            <select id="bulk-tag-type" value={type} onChange={(e) => setType(e.target.value)}>
              {(tagTypes.data ?? [{ name: 'simple' }]).map((t) => (
                <option key={t.name}>{t.name}</option>
              ))}
            </select>
          </Field>
          <Field label="Value" htmlFor="bulk-tag-value" error={value.trim() ? null : undefined}>
            <input id="bulk-tag-value" value={value} onChange={(e) => setValue(e.target.value)} required />
          </Field>
        </div>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={tag.isPending}>
            Add tag
          </button>
        </div>
      </form>
    </Dialog>
  );
}
