import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../api/errors';
import { useToast } from '../components/ui/toast';

interface Options<TVars, TResult> {
  mutationFn(vars: TVars): Promise<TResult>;
  /** Query keys to refetch after success. */
  invalidates?: QueryKey[];
  success?: string | ((result: TResult, vars: TVars) => string);
  onSuccess?(result: TResult, vars: TVars): void;
  /** Show the server's message as a toast (default); forms that show it inline turn this off. */
  toastErrors?: boolean;
}

/** A mutation that refetches what it changed and tells the user how it went. */
export function useApiMutation<TVars = void, TResult = unknown>(options: Options<TVars, TResult>) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: options.mutationFn,
    onSuccess: async (result, vars) => {
      await Promise.all(
        (options.invalidates ?? []).map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      );
      if (options.success)
        toast.success(typeof options.success === 'string' ? options.success : options.success(result, vars));
      options.onSuccess?.(result, vars);
    },
    onError: (error) => {
      if (options.toastErrors !== false) toast.error(errorMessage(error));
    },
  });
}
