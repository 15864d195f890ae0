// Apart from `feature-search.ts`, and importing nothing, so that `app/early-answers.ts` can ask for the
// first page with these filters before the app's code has arrived.

export interface FeatureFilters {
  query: string;
  type: string;
  tag: string;
  state: '' | 'stale' | 'active';
  lifecycle: string;
  enabledSomewhere: boolean;
  sortBy: 'name' | 'createdAt' | 'type';
  sortOrder: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** The project page's filters as it opens: newest first, 25 a page. */
export const defaultFilters: FeatureFilters = {
  query: '',
  type: '',
  tag: '',
  state: '',
  lifecycle: '',
  enabledSomewhere: false,
  sortBy: 'createdAt',
  sortOrder: 'desc',
  offset: 0,
  limit: 25,
};
