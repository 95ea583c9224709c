import AddCircleOutline from '@mui/icons-material/AddCircleOutlineOutlined';
import Search from '@mui/icons-material/Search';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { can } from '@atende/shared';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Tag, Ticket } from '../../api/types';
import { lazyDialog } from '../../routes/lazyDialog';
import { useSession } from '../../session/store';
import { SearchFilters } from './SearchFilters';
import type { UserOption } from './useLookups';
import { TicketList } from './TicketList';
import { LIST_LOAD_DELAY_MS } from './useTicketList';
import { useTicketsUi } from './store';

// Its form code loads when it first opens (routes/lazyDialog.tsx).
const NewTicketDialog = lazyDialog(
  () => import('./dialogs/NewTicketDialog').then((m) => m.NewTicketDialog),
  (p) => p.open,
);

/** The count sits over the label's end without widening the tab much (999+ fits). */
const SUBTAB_BADGE = { pr: 2, '& .MuiBadge-badge': { right: 2, top: 2 } } as const;

/** The list panel of core §2: open (assigned / pending), closed and search tabs. */
export function TicketsManager({
  viewportWidth,
  onPeek,
}: {
  viewportWidth: number;
  onPeek(t: Ticket): void;
}) {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const { tab, openTab, showAll, setTab, setOpenTab, setShowAll } = useTicketsUi();
  const [counts, setCounts] = useState({ open: 0, pending: 0 });
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const [searchParam, setSearchParam] = useState('');
  const [searchTags, setSearchTags] = useState<Tag[]>([]);
  const [searchUsers, setSearchUsers] = useState<UserOption[]>([]);
  const isAdmin = !!user && can(user.profile, 'drawer-admin-items:view');
  const queueIds = useMemo(() => user?.queues.map((q) => q.id) ?? [], [user]);
  const mayShowAll = !!user && can(user.profile, 'tickets-manager:showall');
  const effectiveShowAll = mayShowAll && showAll;

  // Searches are debounced 500 ms (core §9).
  useEffect(() => {
    const timer = setTimeout(() => setSearchParam(search.trim()), LIST_LOAD_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const setOpenCount = useMemo(() => (open: number) => setCounts((c) => ({ ...c, open })), []);
  const setPendingCount = useMemo(
    () => (pending: number) => setCounts((c) => ({ ...c, pending })),
    [],
  );

  return (
    <Paper
      square
      elevation={0}
      sx={{
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        borderRight: 1,
        borderColor: 'divider',
      }}
    >
      <Tabs value={tab} onChange={(_, v) => setTab(v)} variant="fullWidth">
        <Tab value="open" label={t('tickets.open')} />
        <Tab value="closed" label={t('tickets.closed')} />
        <Tab value="search" label={t('tickets.search')} />
      </Tabs>
      {tab === 'search' && (
        <Box sx={{ p: 1 }}>
          <TextField
            fullWidth
            size="small"
            autoFocus
            placeholder={t('tickets.searchPlaceholder')}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            slotProps={{
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <Search />
                  </InputAdornment>
                ),
              },
              htmlInput: { 'aria-label': t('tickets.searchPlaceholder') },
            }}
          />
          <SearchFilters
            tags={searchTags}
            users={searchUsers}
            withUsers={isAdmin}
            onTags={setSearchTags}
            onUsers={setSearchUsers}
          />
        </Box>
      )}
      {tab === 'open' && (
        <Box
          sx={{ display: 'flex', alignItems: 'center', pl: 0.5, pr: 1, gap: 0.5 }}
          data-testid="open-subtabs"
        >
          {/* Sized to their labels (no scrolling) so both tabs and their badges stay whole
              beside the add button and the switch down to a 320 px list (issue 12). */}
          <Tabs
            value={openTab}
            onChange={(_, v) => setOpenTab(v)}
            sx={{
              flex: 1,
              minWidth: 0,
              '& .MuiTab-root': { minWidth: 0, px: 1, textTransform: 'none', fontSize: 14 },
              '& .MuiTabs-flexContainer': { gap: 0.5 },
            }}
          >
            <Tab
              value="open"
              label={
                <Badge badgeContent={counts.open} color="primary" max={999} sx={SUBTAB_BADGE}>
                  {t('tickets.assigned')}
                </Badge>
              }
            />
            <Tab
              value="pending"
              label={
                <Badge badgeContent={counts.pending} color="secondary" max={999} sx={SUBTAB_BADGE}>
                  {t('tickets.pending')}
                </Badge>
              }
            />
          </Tabs>
          <IconButton
            color="primary"
            size="small"
            aria-label={t('tickets.newTicket')}
            title={t('tickets.newTicket')}
            onClick={() => setCreating(true)}
          >
            <AddCircleOutline />
          </IconButton>
          {mayShowAll && (
            <FormControlLabel
              sx={{ mr: 0, ml: 0, flexShrink: 0 }}
              control={<Switch size="small" checked={showAll} onChange={(_, v) => setShowAll(v)} />}
              label={<Typography variant="caption">{t('tickets.showAll')}</Typography>}
            />
          )}
        </Box>
      )}
      {/* Both open lists stay mounted so their count badges stay live. */}
      <TicketList
        params={{ status: 'open', showAll: effectiveShowAll, queueIds }}
        onCount={setOpenCount}
        onPeek={onPeek}
        viewportWidth={viewportWidth}
        hidden={!(tab === 'open' && openTab === 'open')}
      />
      <TicketList
        params={{ status: 'pending', showAll: effectiveShowAll, queueIds }}
        onCount={setPendingCount}
        onPeek={onPeek}
        viewportWidth={viewportWidth}
        hidden={!(tab === 'open' && openTab === 'pending')}
      />
      {tab === 'closed' && (
        <TicketList
          params={{ status: 'closed', showAll: effectiveShowAll, queueIds }}
          onPeek={onPeek}
          viewportWidth={viewportWidth}
        />
      )}
      {tab === 'search' && (
        <TicketList
          params={{
            searchParam,
            showAll: true,
            queueIds,
            tags: searchTags.map((tag) => tag.id),
            users: isAdmin ? searchUsers.map((u) => u.id) : undefined,
          }}
          onPeek={onPeek}
          viewportWidth={viewportWidth}
        />
      )}
      <NewTicketDialog open={creating} onClose={() => setCreating(false)} />
    </Paper>
  );
}
