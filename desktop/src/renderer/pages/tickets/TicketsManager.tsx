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
import { can } from '@atende/shared';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Ticket } from '../../api/types';
import { useSession } from '../../session/store';
import { NewTicketDialog } from './dialogs/NewTicketDialog';
import { TicketList } from './TicketList';
import { LIST_LOAD_DELAY_MS } from './useTicketList';
import { useTicketsUi } from './store';

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
        </Box>
      )}
      {tab === 'open' && (
        <Box sx={{ display: 'flex', alignItems: 'center', px: 1 }}>
          <Tabs
            value={openTab}
            onChange={(_, v) => setOpenTab(v)}
            variant="scrollable"
            scrollButtons={false}
            sx={{ flex: 1, minWidth: 0 }}
          >
            <Tab
              value="open"
              label={
                <Badge badgeContent={counts.open} color="primary" max={999} sx={{ pr: 2 }}>
                  {t('tickets.assigned')}
                </Badge>
              }
            />
            <Tab
              value="pending"
              label={
                <Badge badgeContent={counts.pending} color="secondary" max={999} sx={{ pr: 2 }}>
                  {t('tickets.pending')}
                </Badge>
              }
            />
          </Tabs>
          <IconButton
            color="primary"
            aria-label={t('tickets.newTicket')}
            title={t('tickets.newTicket')}
            onClick={() => setCreating(true)}
          >
            <AddCircleOutline />
          </IconButton>
          {mayShowAll && (
            <FormControlLabel
              control={<Switch size="small" checked={showAll} onChange={(_, v) => setShowAll(v)} />}
              label={t('tickets.showAll')}
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
          params={{ searchParam, showAll: true, queueIds }}
          onPeek={onPeek}
          viewportWidth={viewportWidth}
        />
      )}
      <NewTicketDialog open={creating} onClose={() => setCreating(false)} />
    </Paper>
  );
}
