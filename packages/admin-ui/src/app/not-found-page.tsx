import { Link } from 'react-router';
import { EmptyState, PageHeader } from '../components/ui/page';

export default function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <EmptyState>
        Nothing lives at this address. <Link to="/projects">Back to projects</Link>
      </EmptyState>
    </>
  );
}
