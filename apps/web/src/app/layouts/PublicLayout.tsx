import { Box } from '@mantine/core';
import { Outlet } from 'react-router';
import { SiteFooter } from '../components/SiteFooter.tsx';
import { SiteHeader } from '../components/SiteHeader.tsx';
import { MAIN_CONTENT_ID } from '../components/SkipLink.tsx';
import classes from './PublicLayout.module.css';

/** Header, main and footer around the public pages (marketing pages bring only their content). */
export function PublicLayout() {
  return (
    <div className={classes.root}>
      <SiteHeader />
      <Box component="main" id={MAIN_CONTENT_ID} tabIndex={-1} className={classes.main}>
        <Outlet />
      </Box>
      <SiteFooter />
    </div>
  );
}
