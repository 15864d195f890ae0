import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { SecretOnce } from '../../components/secret-once';
import { ActionButton } from '../../components/ui/action-button';
import { Badge, Card, ErrorNotice, Field, Loading } from '../../components/ui/page';
import { useFormErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';
import { ADMIN_ONLY, useCan } from '../auth/permissions';
import {
  createSignalEndpoint,
  createSignalEndpointToken,
  deleteSignalEndpoint,
  listSignalEndpointsQueryOptions,
  signalEndpointKeys,
} from './api/signal-endpoints';

const key = signalEndpointKeys.all;
const NAME = /^[a-z0-9-]+$/;

/** Signal endpoints external systems post to, and their tokens (secret shown once). */
export function SignalsTab() {
  const admin = useCan()('ADMIN');
  const list = useQuery(listSignalEndpointsQueryOptions());
  const [name, setName] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const create = useApiMutation({
    mutationFn: () => createSignalEndpoint(name),
    invalidates: [key],
    success: 'Signal endpoint created',
    toastErrors: false,
    onSuccess: () => setName(''),
  });
  const errors = useFormErrors(create.error, ['name', 'description']);
  const addToken = useApiMutation({
    mutationFn: (id: number) => createSignalEndpointToken(id, 'token'),
    invalidates: [key],
    onSuccess: (t) => setSecret(t.token),
  });
  const remove = useApiMutation({
    mutationFn: (id: number) => deleteSignalEndpoint(id),
    invalidates: [key],
    success: 'Signal endpoint deleted',
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const valid = NAME.test(name);
    if (
      errors.report(
        valid ? [] : [{ path: 'name', message: 'may hold lower-case letters, digits and "-" only' }],
      )
    )
      create.mutate();
  };
  return (
    <div className="grid grid-2">
      <Card title="Signal endpoints">
        {list.isPending ? <Loading /> : null}
        <ErrorNotice error={list.error} />
        {secret ? <SecretOnce secret={secret} label="signal token" /> : null}
        {list.data?.signalEndpoints.map((s) => (
          <div key={s.id} className="strategy">
            <div className="strategy-head">
              <strong>{s.name}</strong>
              {s.enabled ? <Badge tone="good">enabled</Badge> : <Badge>disabled</Badge>}
              <span className="muted mono">POST api/signal-endpoint/{s.name}</span>
              <span className="spacer" />
              <ActionButton
                type="button"
                className="btn btn-small"
                disabledReason={admin ? null : ADMIN_ONLY}
                onClick={() => addToken.mutate(s.id)}
              >
                New token
              </ActionButton>
              <ActionButton
                type="button"
                className="btn btn-small btn-ghost"
                disabledReason={admin ? null : ADMIN_ONLY}
                onClick={() => remove.mutate(s.id)}
              >
                Delete
              </ActionButton>
            </div>
            {s.tokens?.length ? (
              <div className="muted">Tokens: {s.tokens.map((t) => t.name).join(', ')}</div>
            ) : null}
          </div>
        ))}
      </Card>
      <Card title="New signal endpoint">
        <form onSubmit={submit} noValidate>
          <Field label="Name" htmlFor="signal-name" error={errors.of('name')}>
            <input
              id="signal-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="deploy-hook"
            />
          </Field>
          <ErrorNotice error={errors.rest} />
          <div className="form-actions">
            <ActionButton
              type="submit"
              className="btn btn-primary"
              disabledReason={admin ? null : ADMIN_ONLY}
            >
              Create endpoint
            </ActionButton>
          </div>
        </form>
      </Card>
    </div>
  );
}
