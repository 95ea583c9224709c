import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import Popover from '@mui/material/Popover';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

export interface TopBarPopoverProps {
  /** The button's tooltip and accessible name. */
  label: string;
  icon: ReactNode;
  /** The dot on the icon (something unread). */
  dot: boolean;
  dotColor: 'secondary' | 'error';
  /** `<name>-popover-button`, `<name>-dot` and `<name>-popover` test ids. */
  name: string;
  anchor: HTMLElement | null;
  onOpen: (target: HTMLElement) => void;
  onClose: () => void;
  width: number;
  maxHeight: number;
  /** Shown when `empty` is set, above the items. */
  emptyText: string;
  empty: boolean;
  children: ReactNode;
}

/**
 * A top-bar icon with an unread dot that opens a list under it (core §2): the shell the
 * announcements and internal chats popovers share.
 */
export function TopBarPopover(props: TopBarPopoverProps) {
  const { label, name, anchor } = props;
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          color="inherit"
          aria-label={label}
          onClick={(e) => props.onOpen(e.currentTarget)}
          data-testid={`${name}-popover-button`}
        >
          <Badge
            variant="dot"
            color={props.dotColor}
            invisible={!props.dot}
            data-testid={`${name}-dot`}
          >
            {props.icon}
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={props.onClose}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{
          paper: { sx: { width: props.width, maxWidth: '95vw', maxHeight: props.maxHeight } },
        }}
      >
        <List dense data-testid={`${name}-popover`}>
          {props.empty && (
            <Typography sx={{ p: 2 }} color="text.secondary">
              {props.emptyText}
            </Typography>
          )}
          {props.children}
        </List>
      </Popover>
    </>
  );
}
