import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { api } from '../api/client';
import { useCurrentUser } from '../features/auth/permissions';
import { sessionKey } from '../features/auth/use-session';

const NAV: { section: string; links: { to: string; label: string; icon: string }[] }[] = [
  {
    section: 'Flags',
    links: [
      { to: '/projects', label: 'Projects', icon: '▦' },
      { to: '/playground', label: 'Playground', icon: '▶' },
      { to: '/change-requests', label: 'Change requests', icon: '✓' },
      { to: '/events', label: 'Event log', icon: '☰' },
      { to: '/archive', label: 'Archive', icon: '⌫' },
      { to: '/insights', label: 'Insights', icon: '◔' },
    ],
  },
  {
    section: 'Configure',
    links: [
      { to: '/segments', label: 'Segments', icon: '◎' },
      { to: '/context', label: 'Context fields', icon: '▤' },
      { to: '/tag-types', label: 'Tag types', icon: '#' },
      { to: '/environments', label: 'Environments', icon: '◇' },
    ],
  },
  {
    section: 'Admin',
    links: [
      { to: '/access', label: 'Access', icon: '◆' },
      { to: '/integrations', label: 'Integrations', icon: '⇄' },
    ],
  },
];

/** Sidebar navigation and the page outlet; the sidebar folds into a menu at phone width. */
export function Layout() {
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const location = useLocation();
  // The phone menu stays open only on the page where it was opened, so navigating closes it.
  const [menuOpenAt, setMenuOpenAt] = useState<string | null>(null);
  const menuOpen = menuOpenAt === location.pathname;
  const logout = useMutation({
    mutationFn: () => api.POST('/logout'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionKey }),
  });
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <aside className={menuOpen ? 'sidebar sidebar-open' : 'sidebar'}>
        <div className="sidebar-top">
          <NavLink to="/projects" className="brand">
            <span className="brand-mark" aria-hidden="true" />
            Flagstaff
          </NavLink>
          <button
            type="button"
            className="icon-btn menu-btn"
            aria-expanded={menuOpen}
            aria-controls="main-nav"
            aria-label="Menu"
            onClick={() => setMenuOpenAt(menuOpen ? null : location.pathname)}
          >
            ☰
          </button>
        </div>
        <nav id="main-nav" aria-label="Main">
          {NAV.map((group) => (
            <div key={group.section} className="nav-group">
              <div className="nav-section">{group.section}</div>
              {group.links.map((link) => (
                <NavLink key={link.to} to={link.to} className="nav-link">
                  <span className="nav-icon" aria-hidden="true">
                    {link.icon}
                  </span>
                  {link.label}
                </NavLink>
              ))}
            </div>
          ))}
          <div className="nav-user">
            <NavLink
              to="/profile"
              className="nav-user-link"
              aria-label={`Your profile: ${user.name ?? user.username ?? user.email}`}
            >
              <span className="avatar" aria-hidden="true">
                {(user.name ?? user.username ?? user.email ?? '?').slice(0, 1).toUpperCase()}
              </span>
              <span className="nav-user-name">{user.name ?? user.username ?? user.email}</span>
            </NavLink>
            <button type="button" className="btn btn-ghost btn-small" onClick={() => logout.mutate()}>
              Sign out
            </button>
          </div>
        </nav>
      </aside>
      <main id="main" className="content">
        <Outlet />
      </main>
    </div>
  );
}
